// The account site's one script: the copy button next to a new API token. The page works without
// it (the token is a read-only field to select and copy); this only adds the button.
"use strict";

(() => {
  const button = document.getElementById("copy-token");
  const token = document.getElementById("new-token");
  const status = document.getElementById("copy-status");
  if (!button || !token) return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(token.value);
      status.textContent = "Copied.";
    } catch {
      // No clipboard access (an insecure context, or refused): select it for Ctrl+C / Cmd+C.
      token.select();
      status.textContent = "Selected: press Ctrl+C (or Cmd+C) to copy.";
    }
  });
})();
