/** A template or profile of the library (RackHD §9): its text, by name. */
export interface LibraryRecord {
  id: string;
  name: string;
  contents: string;
  scope: "global";
  createdAt: string;
  updatedAt: string;
}

export type LibraryKind = "templates" | "profiles";
