import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { CodeQrPanel } from './CodeQr';
import { CodeCell } from './CodeList';

const OVERRIDES = { cc_code: { Cell: CodeCell } };

/**
 * /console/{a}/codes/{id}: the code's group and title (generated form), the code itself read-only, and beside them
 * its QR (the player's address) with PNG and SVG downloads, a print page and a link that opens the player.
 */
export default function CodeEdit({ decl }: { decl: ResourceDeclaration }) {
  return (
    <GeneratedEdit
      decl={decl}
      form={(record) => ({
        overrides: OVERRIDES,
        aside: record.cc_code ? <CodeQrPanel code={String(record.cc_code)} title={record.cc_title as string | null} /> : undefined,
      })}
    />
  );
}
