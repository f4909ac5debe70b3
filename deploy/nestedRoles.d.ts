/** The nested template's file name, beside the root template in the package directory. */
export const NESTED_TEMPLATE: string;
