export default defineBackground(() => {
  // wired in lib/extension/worker.ts
});
