// gpuc's version, part of every cache owner: code compiled by another version is never revived.
// test/cache.test.ts checks it against package.json.
export const GPUC_VERSION = "0.1.0";
