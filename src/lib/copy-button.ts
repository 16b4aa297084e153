/**
 * "Copy link" buttons, an enhancement: each `[data-copy="<input id>"]` button is hidden in the HTML (the input's
 * text can be selected and copied by hand) and shown here, where it can work. The result is said in the page's
 * `[data-copy-status]` live region. "Share…" buttons likewise: `[data-share="<input id>"]` appears only where the
 * browser has the Web Share API (the system's own share sheet; nothing is loaded for it).
 */
export function enhanceCopyButtons(): void {
  const status = document.querySelector<HTMLElement>("[data-copy-status]");
  for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    const input = document.getElementById(button.dataset["copy"] ?? "") as HTMLInputElement | null;
    if (!input) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      // Selected either way: where the clipboard is refused (an old browser, a denied permission), a key press copies.
      input.select();
      const copied = await navigator.clipboard?.writeText(input.value).then(
        () => true,
        () => false,
      );
      if (status) status.textContent = copied ? "Link copied." : "Press Ctrl+C (or ⌘C) to copy the selected link.";
    });
  }
}

/** Shows each `[data-share]` button where navigator.share exists; it shares the input's link with the button's text. */
export function enhanceShareButtons(): void {
  if (typeof navigator.share !== "function") return;
  for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-share]")) {
    const input = document.getElementById(button.dataset["share"] ?? "") as HTMLInputElement | null;
    if (!input) continue;
    button.hidden = false;
    button.addEventListener("click", () => {
      // A cancelled sheet rejects: nothing to say about it.
      navigator.share({ text: button.dataset["shareText"] ?? "", url: input.value }).catch(() => undefined);
    });
  }
}
