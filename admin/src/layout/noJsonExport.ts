/**
 * Stands in for `jsonexport` in the admin build (admin/vite.config.ts, an alias): react-admin's list controller
 * imports its `defaultExporter` (and with it jsonexport, about 5 KiB gzipped on every page with a list or a select of
 * records) for its client-side CSV export, yet every Leadstage list exports on the server (the export endpoints of
 * platform-and-flows.md, `ExportButton` in admin/src/generated/listTools.tsx) and sets `exporter={false}`. A list
 * that left react-admin's exporter on would fail here loudly instead of exporting only the page it holds.
 */
export default function jsonExport(): never {
  throw new Error('Leadstage exports on the server: give the list exporter={false} (admin/src/layout/noJsonExport.ts)');
}
