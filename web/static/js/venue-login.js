// The staff login: post the login and password, then open the dashboard.
import { byId, postJSON, setText } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";

let i18n = await loadI18n(initialLang());
const form = byId("login-form");
form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    await postJSON("/api/venue/login", { login: byId("login").value, password: byId("password").value });
    location.href = "/";
  } catch (err) {
    const el = byId("login-error");
    setText(el, i18n.t(err.code === "login_locked" ? "venue.locked_out" : "venue.wrong_login"));
    el.hidden = false;
  }
});
form.querySelector("button[type=submit]").disabled = false;
wireLangSwitch((next) => { i18n = next; i18n.apply(); });
i18n.apply();
setText(byId("status"), "");
byId("status").hidden = true;
