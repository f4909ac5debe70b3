// The operator console's browser bundle, built from console/ when the console's functions are
// bundled (deploy/esbuildPlugins.js; tests/support/consoleAssets.js under jest).
declare module "console-assets" {
  const assets: { js: string; css: string };
  export default assets;
}
