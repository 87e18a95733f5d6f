/** CSS for the marks and the tooltip. It lives only inside their shadow roots, so nothing leaks
 * into the page; `!important` on :host because page rules on the host element would otherwise
 * win over ours. */

// The host is a plain <span> in the page: `all: unset` (important, so it beats the page's own
// rules for span) makes it a neutral inline box that inherits the text's look. The verdict is drawn
// by the inner .m element, whose class this script sets from its own memory: nothing the page can
// reach (an attribute, a part) decides the colour.
// Colour plus a line style per verdict, so colour is never the only signal; the icon comes from
// generated content so it is not part of the page's text (innerText, copy, find-in-page).
export const MARK_CSS = `
:host { all: unset !important; display: inline !important; cursor: help !important; }
:host(:focus) { outline: none !important; }
:host(:focus-visible) { outline: 2px solid #2563eb !important; outline-offset: 1px !important; }
.m {
  text-decoration-line: underline;
  text-decoration-thickness: 2px;
  text-underline-offset: 0.18em;
  text-decoration-skip-ink: none;
  border-radius: 2px;
  -webkit-box-decoration-break: clone;
  box-decoration-break: clone;
}
.m.supported { text-decoration-style: solid; text-decoration-color: #15803d; background-color: rgb(22 163 74 / 0.13); }
.m.corrected { text-decoration-style: wavy; text-decoration-color: #b45309; background-color: rgb(245 158 11 / 0.18); }
.m.refuted { text-decoration-style: double; text-decoration-color: #b91c1c; background-color: rgb(220 38 38 / 0.12); }
.m.unverifiable { text-decoration-style: dotted; text-decoration-color: #6b7280; background-color: rgb(107 114 128 / 0.12); }
/* A zero-size box at the end of the text, its glyph hung above it out of flow: it takes no
   space and adds no height, so no line of the page re-wraps or moves. */
.icon { display: inline-block; position: relative; width: 0; height: 0; vertical-align: baseline; pointer-events: none; user-select: none; }
.icon::after { content: var(--ratify-icon); position: absolute; left: -0.2em; bottom: 0.55em; font: bold 0.8em/1 system-ui, sans-serif; }
.icon.supported { color: #15803d; --ratify-icon: "✓"; }
.icon.corrected { color: #b45309; --ratify-icon: "✎"; }
.icon.refuted { color: #b91c1c; --ratify-icon: "✗"; }
.icon.unverifiable { color: #6b7280; --ratify-icon: "?"; }
`;

export const TOOLTIP_CSS = `
:host {
  all: initial !important;
  position: fixed !important;
  inset: 0 auto auto 0 !important;
  width: 0 !important;
  height: 0 !important;
  margin: 0 !important;
  padding: 0 !important;
  border: 0 !important;
  overflow: visible !important;
  background: transparent !important;
  z-index: 2147483647 !important;
  display: block !important;
}
:host(:not([data-open])) { display: none !important; }
.box {
  position: fixed; box-sizing: border-box; width: max-content; min-width: 15rem; max-width: min(24rem, calc(100vw - 16px));
  padding: 10px 12px; background: #fff; color: #1f2328; border: 1px solid #d0d7de; border-radius: 8px;
  box-shadow: 0 8px 24px rgb(0 0 0 / 0.18); font: 13px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif;
  text-align: start; direction: ltr; white-space: normal; overflow-wrap: anywhere;
}
.head { display: flex; align-items: center; gap: 6px; font-weight: 600; font-size: 14px; }
.badge { display: inline-grid; place-items: center; width: 18px; height: 18px; border-radius: 50%; color: #fff; font-size: 12px; line-height: 1; }
.supported .badge { background: #15803d; } .supported .head { color: #166534; }
.corrected .badge { background: #b45309; } .corrected .head { color: #92400e; }
.refuted .badge { background: #b91c1c; } .refuted .head { color: #991b1b; }
.unverifiable .badge { background: #6b7280; } .unverifiable .head { color: #374151; }
p { margin: 6px 0 0; }
.explanation { color: #57606a; }
.actions { display: flex; justify-content: space-between; gap: 8px; margin-top: 10px; }
.actions .show { background: #0969da; border-color: #0969da; color: #fff; font-weight: 600; }
.actions .show:hover { background: #0550ae; }
.actions .show + .clear { margin-left: auto; }
button { font: inherit; padding: 3px 10px; border-radius: 6px; border: 1px solid #d0d7de; background: #f6f8fa; color: inherit; cursor: pointer; }
button:hover { background: #eaeef2; }
button:focus-visible { outline: 2px solid #2563eb; outline-offset: 2px; }
@media (prefers-color-scheme: dark) {
  .box { background: #1f2328; color: #e6edf3; border-color: #444c56; }
  .explanation { color: #9da7b3; }
  button { background: #2d333b; border-color: #444c56; }
  button:hover { background: #373e47; }
  .actions .show { background: #388bfd; border-color: #388bfd; color: #0d1117; }
  .actions .show:hover { background: #58a6ff; }
  .supported .head { color: #4ade80; } .corrected .head { color: #fbbf24; } .refuted .head { color: #f87171; } .unverifiable .head { color: #cbd5e1; }
}
`;
