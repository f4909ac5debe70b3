/**
 * Serverless plugin, for `package` and `deploy`: the functions' roles (and the policies attached
 * to them) go into one nested stack, `FunctionRoles`, so that the root stack keeps room under
 * CloudFormation's 500 resources as the service grows (issue 27).
 *
 * Why not serverless-plugin-split-stacks: it asks CloudFormation for the deployed stack on every
 * `package` (no package without AWS credentials, so none in the deploy tier here), and moves
 * resources by type or per function, where only the roles (one per distinct set of needs,
 * lib/deploy/serverlessRoles.ts) need to move: they are the one kind of resource that nothing but
 * a function's `Role` and the policies attached to them reference.
 *
 * What moves is rewritten both ways: the nested template takes what the roles reference in the
 * root stack (the table's ARN, say) as parameters, and the root stack reads the roles' ARNs and
 * names from the nested stack's outputs. The nested template is written beside the root one and
 * uploaded with it (`deploy`); its hash is in the nested stack's metadata, so that a change of a
 * role alone is a change of the root template (the framework skips a deploy whose root template
 * and artifacts did not change).
 */
const { createHash } = require("node:crypto");
const { readFileSync, writeFileSync, mkdirSync } = require("node:fs");
const { join } = require("node:path");

const STACK = "FunctionRoles";
const FILE = "cloudformation-template-function-roles.json";
/** Parameter and output names are alphanumeric. */
const nameOf = (...parts) => parts.join("").replace(/[^A-Za-z0-9]/g, "");
const SUB_VARIABLE = /\$\{([A-Za-z0-9:]+)(?:\.([A-Za-z0-9.]+))?\}/g;

/**
 * `value` with every reference to a logical id `isOther(id)` says is across the boundary replaced
 * by `replace(id, attribute)` (attribute undefined for a `Ref`), which answers the new reference
 * and, for `Fn::Sub`, the variable's new name (`direct` when a template's own parameter, which
 * `Fn::Sub` names without a variable).
 */
function rewrite(value, isOther, replace) {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, isOther, replace));
  if (!value || typeof value !== "object") return value;
  const [key] = Object.keys(value);
  const inner = value[key];
  if (Object.keys(value).length === 1 && key === "Ref" && typeof inner === "string" && isOther(inner)) {
    return replace(inner, undefined).reference;
  }
  if (Object.keys(value).length === 1 && key === "Fn::GetAtt") {
    const [id, attribute] = Array.isArray(inner) ? inner : String(inner).split(/\.(.*)/);
    if (isOther(id)) return replace(id, attribute).reference;
  }
  if (Object.keys(value).length === 1 && key === "Fn::Sub") {
    const [text, variables = {}] = Array.isArray(inner) ? inner : [inner];
    const added = {};
    const replaced = text.replace(SUB_VARIABLE, (whole, id, attribute) => {
      if (!isOther(id) || id in variables) return whole;
      const { variable, reference, direct } = replace(id, attribute);
      // A parameter is named in `Fn::Sub` as it is; an output needs a variable.
      if (!direct) added[variable] = reference;
      return `\${${variable}}`;
    });
    const merged = { ...rewrite(variables, isOther, replace), ...added };
    // `${X.Arn}` alone is the reference itself.
    const whole = /^\$\{([A-Za-z0-9]+)\}$/.exec(replaced);
    if (whole && whole[1] in added && Object.keys(merged).length === 1) return added[whole[1]];
    return { "Fn::Sub": Object.keys(merged).length > 0 ? [replaced, merged] : replaced };
  }
  return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, rewrite(inner, isOther, replace)]));
}

/** Splits `template` in place; answers the nested template, or undefined when there is no role to move. */
function splitRoles(template, templateUrl) {
  const resources = template.Resources;
  const roleIds = new Set(
    Object.values(resources)
      .filter((resource) => resource.Type === "AWS::Lambda::Function")
      .flatMap((fn) => [...JSON.stringify(fn.Properties.Role).matchAll(/([A-Za-z0-9]+)(?:\.Arn|", ?"Arn")/g)].map((match) => match[1]))
      .filter((id) => resources[id]?.Type === "AWS::IAM::Role"),
  );
  if (roleIds.size === 0) return undefined;
  const attached = Object.keys(resources).filter(
    (id) =>
      resources[id].Type === "AWS::IAM::ManagedPolicy" &&
      (resources[id].Properties.Roles ?? []).every((role) => roleIds.has(role.Ref)) &&
      (resources[id].Properties.Roles ?? []).length > 0,
  );
  const moved = new Set([...roleIds, ...attached]);
  const nested = {
    AWSTemplateFormatVersion: "2010-09-09",
    Description: "The functions' roles",
    Parameters: {},
    Resources: {},
    Outputs: {},
  };
  const passed = {};
  const isRoot = (id) => !id.startsWith("AWS::") && !moved.has(id) && id in resources;
  const asParameter = (id, attribute) => {
    const name = nameOf(id, attribute ?? "");
    nested.Parameters[name] = { Type: "String" };
    passed[name] = attribute ? { "Fn::GetAtt": [id, attribute] } : { Ref: id };
    return { reference: { Ref: name }, variable: name, direct: true };
  };
  for (const id of moved) {
    const { DependsOn, ...resource } = resources[id];
    const inside = [DependsOn ?? []].flat().filter((dependency) => moved.has(dependency));
    nested.Resources[id] = { ...rewrite(resource, isRoot, asParameter), ...(inside.length > 0 && { DependsOn: inside }) };
    delete resources[id];
  }
  const asOutput = (id, attribute) => {
    const name = nameOf(id, attribute ?? "Name");
    nested.Outputs[name] = { Value: attribute ? { "Fn::GetAtt": [id, attribute] } : { Ref: id } };
    return { reference: { "Fn::GetAtt": [STACK, `Outputs.${name}`] }, variable: name };
  };
  for (const [id, resource] of Object.entries(resources)) {
    const rewritten = rewrite(resource, (other) => moved.has(other), asOutput);
    if (rewritten.DependsOn !== undefined) {
      const dependsOn = [...new Set([rewritten.DependsOn].flat().map((dependency) => (moved.has(dependency) ? STACK : dependency)))];
      rewritten.DependsOn = dependsOn;
    }
    resources[id] = rewritten;
  }
  const body = JSON.stringify(nested);
  resources[STACK] = {
    Type: "AWS::CloudFormation::Stack",
    Properties: {
      TemplateURL: templateUrl,
      Parameters: { ...passed },
    },
    // A changed role changes the root template too (the framework skips a deploy whose root template did not change).
    Metadata: { TemplateSha256: createHash("sha256").update(body).digest("hex") },
  };
  return nested;
}

class NestedRoles {
  constructor(serverless, options) {
    this.serverless = serverless;
    this.options = options;
    this.hooks = {
      "after:aws:package:finalize:mergeCustomProviderResources": () => this.split(),
      "after:package:finalize": () => this.write(),
      "before:aws:deploy:deploy:uploadArtifacts": () => this.upload(),
    };
  }

  get packagePath() {
    return this.options.package ?? join(this.serverless.serviceDir, ".serverless");
  }

  split() {
    const template = this.serverless.service.provider.compiledCloudFormationTemplate;
    // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub, not a template string
    const bucket = this.serverless.service.provider.deploymentBucket ?? "${ServerlessDeploymentBucket}";
    const key = `${this.serverless.service.package.artifactDirectoryName}/${FILE}`;
    const url = { "Fn::Sub": `https://${bucket}.s3.\${AWS::Region}.\${AWS::URLSuffix}/${key}` };
    const nested = splitRoles(template, url);
    if (!nested) return;
    this.nested = nested;
  }

  /** After the framework has written the root template (and any packaging plugin has tidied the directory). */
  write() {
    if (!this.nested) return;
    mkdirSync(this.packagePath, { recursive: true });
    writeFileSync(join(this.packagePath, FILE), JSON.stringify(this.nested, null, 2));
  }

  async upload() {
    const template = this.serverless.service.provider.compiledCloudFormationTemplate;
    if (!template.Resources[STACK]) return;
    const provider = this.serverless.getProvider("aws");
    const { S3Client, PutObjectCommand } = require("@aws-sdk/client-s3");
    const s3 = new S3Client(await provider.getAwsSdkV3Config());
    await s3.send(
      new PutObjectCommand({
        Bucket: await provider.getServerlessDeploymentBucketName(),
        Key: `${this.serverless.service.package.artifactDirectoryName}/${FILE}`,
        Body: readFileSync(join(this.packagePath, FILE)),
        ContentType: "application/json",
      }),
    );
  }
}

module.exports = NestedRoles;
module.exports.splitRoles = splitRoles;
module.exports.NESTED_TEMPLATE = FILE;
