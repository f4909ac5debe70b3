import type { Rule } from "../rules/rules";

/** A tag record (RackHD era B/C §5): a name and rules; kept by name, so `id` is the name. */
export interface Tag {
  id: string;
  name: string;
  rules: Rule[];
  createdAt: string;
  updatedAt: string;
}
