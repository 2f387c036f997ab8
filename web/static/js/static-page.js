// Pages without live data: only texts and the language switch.
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";

const i18n = await loadI18n(initialLang());
i18n.apply();
wireLangSwitch((next) => next.apply());
const status = document.getElementById("status");
if (status) status.hidden = true;
