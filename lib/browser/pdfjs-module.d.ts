/** The extension's own copy of pdf.js (wxt.config.ts copies it into pdfjs/), which
 * pdf-reader.ts imports by its fixed path; typed by what Ratify uses of it. */
declare module '*/pdfjs/pdf.min.mjs' {
  export const getDocument: import('../retrieval/pdf').PdfJs['getDocument'];
  export const GlobalWorkerOptions: { workerSrc: string };
}
