/**
 * Serverless plugin, for `package` and `deploy`: the stack's layout under CloudFormation's 500
 * resources a stack (issues 27 and 36, docs/deploying.md). The root keeps the functions and what
 * they share; the functions' roles (and the policies attached to them) go into one nested stack,
 * `FunctionRoles`; the HTTP API's routes and integrations into four, `HttpRoutes1` to
 * `HttpRoutes4`, each endpoint's to the one its integration's logical id hashes to. So an endpoint
 * costs the root one resource (its function) and 200 functions fit with each stack under 400.
 *
 * Why a local plugin and not serverless-plugin-split-stacks: it asks CloudFormation for the
 * deployed stack on every `package` (no package without AWS credentials, so none in the deploy
 * tier here), moves nothing of an HTTP API unless told resource by resource, and spreads by type
 * or per function, where these three kinds of resource are the ones that only each other, a
 * function's `Role` and its integration's `IntegrationUri` reference.
 *
 * What moves is rewritten both ways: a nested template takes what its resources reference in the
 * root stack (the table's ARN, a function's ARN, the API's id) as parameters, and the root stack
 * reads the roles' ARNs and names from the roles' stack's outputs. The nested templates are
 * written beside the root one and uploaded with it (`deploy`); each one's hash is in its nested
 * stack's metadata, so that a change inside alone is a change of the root template (the framework
 * skips a deploy whose root template and artifacts did not change).
 */
const { createHash } = require("node:crypto");
const { readFileSync, writeFileSync, mkdirSync } = require("node:fs");
const { join } = require("node:path");

const ROLES_STACK = "FunctionRoles";
const FILE = "cloudformation-template-function-roles.json";
/** How many stacks the routes are spread over: 4 holds about 700 endpoints under 400 resources each (docs/deploying.md). */
const ROUTE_STACKS = 4;
const routesFile = (n) => `cloudformation-template-http-routes-${n}.json`;
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

/**
 * Moves the resources `ids` of `template` (in place) into a nested stack `stack` whose template is
 * at `templateUrl`, and answers that template. References across the new boundary are rewritten:
 * what the moved resources name in the root becomes a parameter, what the root names of them an
 * output; a root resource's `DependsOn` on a moved one becomes one on the nested stack.
 */
function moveToNestedStack(template, { stack, ids, templateUrl, description }) {
  const resources = template.Resources;
  const moved = new Set(ids);
  const nested = { AWSTemplateFormatVersion: "2010-09-09", Description: description, Parameters: {}, Resources: {}, Outputs: {} };
  const passed = {};
  const waits = new Set();
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
    const outside = [DependsOn ?? []].flat().filter((dependency) => !moved.has(dependency));
    nested.Resources[id] = { ...rewrite(resource, isRoot, asParameter), ...(inside.length > 0 && { DependsOn: inside }) };
    // What a moved resource waited for in the root, the whole nested stack waits for.
    for (const dependency of outside) waits.add(dependency);
    delete resources[id];
  }
  const asOutput = (id, attribute) => {
    const name = nameOf(id, attribute ?? "Name");
    nested.Outputs[name] = { Value: attribute ? { "Fn::GetAtt": [id, attribute] } : { Ref: id } };
    return { reference: { "Fn::GetAtt": [stack, `Outputs.${name}`] }, variable: name };
  };
  for (const [id, resource] of Object.entries(resources)) {
    const rewritten = rewrite(resource, (other) => moved.has(other), asOutput);
    if (rewritten.DependsOn !== undefined) {
      const dependsOn = [...new Set([rewritten.DependsOn].flat().map((dependency) => (moved.has(dependency) ? stack : dependency)))];
      rewritten.DependsOn = dependsOn;
    }
    resources[id] = rewritten;
  }
  if (Object.keys(nested.Outputs).length === 0) delete nested.Outputs;
  const body = JSON.stringify(nested);
  resources[stack] = {
    Type: "AWS::CloudFormation::Stack",
    Properties: { TemplateURL: templateUrl, Parameters: passed },
    ...(waits.size > 0 && { DependsOn: [...waits] }),
    // A change inside changes the root template too (the framework skips a deploy whose root template did not change).
    Metadata: { TemplateSha256: createHash("sha256").update(body).digest("hex") },
  };
  return nested;
}

/** The functions' roles and the policies attached to them alone; undefined when there is no role to move. */
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
  return moveToNestedStack(template, {
    stack: ROLES_STACK,
    ids: [...roleIds, ...attached],
    templateUrl,
    description: "The functions' roles",
  });
}

/**
 * The HTTP API's routes and integrations, in ROUTE_STACKS nested stacks: an integration and the
 * routes that target it go together, to the stack its logical id's hash picks, so that a new
 * endpoint never moves another one's route (a route moved between stacks would be created in the
 * new one while the old one still holds its key, which API Gateway refuses).
 */
function splitRoutes(template, templateUrlOf) {
  const resources = template.Resources;
  const integrationOf = (route) => /"Ref":"([A-Za-z0-9]+)"/.exec(JSON.stringify(route.Properties.Target ?? ""))?.[1];
  const groups = Array.from({ length: ROUTE_STACKS }, () => []);
  const stackOf = (id) => createHash("sha256").update(id).digest().readUInt32BE(0) % ROUTE_STACKS;
  for (const [id, resource] of Object.entries(resources)) {
    if (resource.Type === "AWS::ApiGatewayV2::Integration") groups[stackOf(id)].push(id);
    if (resource.Type === "AWS::ApiGatewayV2::Route") {
      const integration = integrationOf(resource);
      if (integration && resources[integration]?.Type === "AWS::ApiGatewayV2::Integration") groups[stackOf(integration)].push(id);
    }
  }
  return groups.flatMap((ids, index) =>
    ids.length === 0
      ? []
      : [
          {
            file: routesFile(index + 1),
            template: moveToNestedStack(template, {
              stack: `HttpRoutes${index + 1}`,
              ids,
              templateUrl: templateUrlOf(routesFile(index + 1)),
              description: `The HTTP API's routes and integrations, part ${index + 1} of ${ROUTE_STACKS}`,
            }),
          },
        ],
  );
}

class NestedStacks {
  constructor(serverless, options) {
    this.serverless = serverless;
    this.options = options;
    this.nested = [];
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
    const urlOf = (file) => ({
      "Fn::Sub": `https://${bucket}.s3.\${AWS::Region}.\${AWS::URLSuffix}/${this.serverless.service.package.artifactDirectoryName}/${file}`,
    });
    const roles = splitRoles(template, urlOf(FILE));
    this.nested = [...(roles ? [{ file: FILE, template: roles }] : []), ...splitRoutes(template, urlOf)];
  }

  /** After the framework has written the root template (and any packaging plugin has tidied the directory). */
  write() {
    mkdirSync(this.packagePath, { recursive: true });
    for (const { file, template } of this.nested) writeFileSync(join(this.packagePath, file), JSON.stringify(template, null, 2));
  }

  async upload() {
    if (this.nested.length === 0) return;
    const provider = this.serverless.getProvider("aws");
    const { S3Client, PutObjectCommand } = require("@aws-sdk/client-s3");
    const s3 = new S3Client(await provider.getAwsSdkV3Config());
    const bucket = await provider.getServerlessDeploymentBucketName();
    for (const { file } of this.nested) {
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: `${this.serverless.service.package.artifactDirectoryName}/${file}`,
          Body: readFileSync(join(this.packagePath, file)),
          ContentType: "application/json",
        }),
      );
    }
  }
}

module.exports = NestedStacks;
module.exports.splitRoles = splitRoles;
module.exports.splitRoutes = splitRoutes;
module.exports.moveToNestedStack = moveToNestedStack;
module.exports.NESTED_TEMPLATE = FILE;
module.exports.ROUTE_STACKS = ROUTE_STACKS;
module.exports.routesFile = routesFile;
