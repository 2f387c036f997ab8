// The host PIN form (the host console and the simulator both ask for it): log in, then reload the page so it
// comes back with the session's CSRF token in its <meta>.
import { byId, postJSON } from "./dom.js";

/** Wire #login-form; a refusal is shown in `errorId`, in the words of `texts()` (the current language). */
export function wirePinLogin(errorId, texts) {
  const form = byId("login-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await postJSON("/api/host/login", { pin: byId("pin").value });
      location.reload();
    } catch (err) {
      const el = byId(errorId);
      const key = { pin_locked: "host.locked_out", pin_table_locked: "host.table_locked_out" }[err.code] || "host.wrong_pin";
      el.textContent = texts().t(key);
      el.hidden = false;
    }
  });
  form.querySelector("button[type=submit]").disabled = false;
}
