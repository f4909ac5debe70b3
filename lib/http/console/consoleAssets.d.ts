// The operator console's browser bundle, built from console/ when the console's functions are
// bundled (deploy/esbuildPlugins.js; tests/support/consoleAssets.js under jest), named by content.
declare module "console-assets" {
  const files: Record<string, { body: string; contentType: string }>;
  export default files;
}
declare module "console-assets/names" {
  const names: { script: string; style: string };
  export default names;
}
