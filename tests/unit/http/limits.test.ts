import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ATTEMPT_LIMIT, ATTEMPT_WINDOW_SECONDS, SOURCE_LIMIT } from "../../../lib/auth/attemptLimiter";
import { settings } from "../../../lib/config/settings";
import { MAX_ANSWER_BYTES, MAX_LIMIT } from "../../../lib/http/paging";
import { NAME_MAX } from "../../../lib/http/provisioning/fields";
import { DESCRIPTION_MAX, TITLE_MAX } from "../../../lib/http/tasks/schemas";
import { UPLOAD_MAX_BYTES } from "../../../lib/provisioning/files/fileService";
import { HOOK_LIMITS } from "../../../lib/provisioning/hooks/hook";
import { KEY_MAX_BYTES, RECORD_MAX_BYTES } from "../../../lib/provisioning/recordSize";
import { PATTERN_MAX, PROGRAM_MAX, SUBJECT_MAX } from "../../../lib/provisioning/rules/linearRegex";
import { S3_INLINE_MAX_BYTES } from "../../../lib/store/s3/fileBlobs";

/** Issue 22 §12: the docs' table of limits says what the code enforces. */
describe("the docs' limits table (docs/api.md)", () => {
  const readme = readFileSync(join(__dirname, "../../../docs/api.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Limits a client can reach"), readme.indexOf("## Lists in pages"));
  const row = (what: string) => section.split("\n").find((line) => line.startsWith(`| ${what}`)) ?? `(no row ${what})`;

  it.each([
    ["A task's `title`", `${TITLE_MAX} characters`],
    ["A task's `description`", `${DESCRIPTION_MAX} characters`],
    ["A request body", `${settings({}).bodyLimitBytes} bytes`],
    ["A provisioning record", `${RECORD_MAX_BYTES} bytes`],
    ["A name or id in a path", `${KEY_MAX_BYTES} bytes (as a key); names in bodies ${NAME_MAX} characters`],
    ["A page", `1 to ${MAX_LIMIT}`],
    ["A whole list", `${MAX_ANSWER_BYTES} bytes`],
    ["A file in the body", `${S3_INLINE_MAX_BYTES} bytes`],
    ["A file through `?size=`", `${UPLOAD_MAX_BYTES} bytes`],
    ["Failed sign-ins", `${ATTEMPT_LIMIT} in ${ATTEMPT_WINDOW_SECONDS} seconds; ${SOURCE_LIMIT} |`],
    [
      "A rule's pattern",
      `${PATTERN_MAX} characters (a hook filter's: ${HOOK_LIMITS.patternChars}); ${SUBJECT_MAX} characters of the value; ${PROGRAM_MAX} compiled instructions`,
    ],
  ])("%s: %s", (what, bound) => {
    expect(row(what)).toContain(bound);
  });
});
