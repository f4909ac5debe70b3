/**
 * Serverless plugin, for `package` and `deploy`: drops the `DependsOn` entries a resource already
 * has through a reference (`Ref`, `Fn::GetAtt`, `${X}` in `Fn::Sub`). CloudFormation orders those
 * itself; the framework writes both for each HTTP API route and its stage, which cfn-lint reports
 * as W3005 (one warning per route). Dropping a duplicate changes no deployment order.
 */

/** The logical ids `value` references, however deep. */
function referenced(value, into = new Set()) {
  if (Array.isArray(value)) for (const item of value) referenced(item, into);
  else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "Ref" && typeof inner === "string") into.add(inner);
      else if (key === "Fn::GetAtt") into.add(Array.isArray(inner) ? inner[0] : String(inner).split(".")[0]);
      else if (key === "Fn::Sub") {
        const text = Array.isArray(inner) ? inner[0] : inner;
        for (const [, name] of String(text).matchAll(/\$\{([A-Za-z0-9]+)(?:\.[A-Za-z0-9.]+)?\}/g)) into.add(name);
        if (Array.isArray(inner)) referenced(inner[1], into);
      } else referenced(inner, into);
    }
  }
  return into;
}

class RedundantDependsOn {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = { "before:package:finalize": () => this.drop() };
  }

  drop() {
    const resources = this.serverless.service.provider.compiledCloudFormationTemplate.Resources;
    for (const resource of Object.values(resources)) {
      if (!resource.DependsOn) continue;
      const refs = referenced(resource.Properties);
      const kept = [resource.DependsOn].flat().filter((id) => !refs.has(id));
      if (kept.length === 0) delete resource.DependsOn;
      else resource.DependsOn = kept;
    }
  }
}

module.exports = RedundantDependsOn;
module.exports.referenced = referenced;
