import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { loadLocale } from "./app/i18n";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

const root = createRoot(container);
const render = () =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// The first render waits for the current language's texts (their own chunk, ADR 018); if they cannot
// be fetched the page still renders, and the texts' keys show what is missing.
loadLocale().then(render, render);
