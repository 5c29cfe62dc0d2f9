/**
 * The formats the studio reads, by name and container, for the "read as" menus: io's catalog,
 * without the parsers and their schemas (those run in the load worker).
 */
export { FORMAT_CATALOG, type FormatInfo } from "../io/formats/catalog.ts";
