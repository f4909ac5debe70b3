/** Redoc's standalone bundle, imported as text (deploy/esbuildPlugins.js; jest maps it likewise). */
declare module "redoc/bundles/redoc.standalone.js" {
  const script: string;
  export default script;
}
