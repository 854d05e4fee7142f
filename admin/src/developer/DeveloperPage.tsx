import { useDeferredValue, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Title, useTranslate } from 'react-admin';
import { api, API_URL } from '../providers/http';
import { DelayedProgress } from '../layout/DelayedProgress';
import { useConsoleAccount } from '../console/ConsoleContext';
import { contentSchema, fieldsOf, groupsOf, typeText, withAccount, type Entry, type OpenApiDocument } from './openApiModel';

const METHOD_COLOURS: Record<string, 'success' | 'primary' | 'warning' | 'error' | 'default'> = {
  get: 'success',
  post: 'primary',
  put: 'warning',
  patch: 'warning',
  delete: 'error',
};

function FieldTable({ rows, label }: { rows: { name: string; type: string; required: boolean; note: string }[]; label: string }) {
  const translate = useTranslate();
  return (
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('ls.developer.name')}</TableCell>
          <TableCell>{translate('ls.developer.type')}</TableCell>
          <TableCell>{translate('ls.developer.notes')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.name}>
            <TableCell sx={{ fontFamily: 'monospace' }}>
              {r.name}
              {r.required ? ' *' : ''}
            </TableCell>
            <TableCell>{r.type}</TableCell>
            <TableCell>{r.note}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function OperationDetails({ doc, entry }: { doc: OpenApiDocument; entry: Entry }) {
  const translate = useTranslate();
  const { op } = entry;
  const params = (op.parameters ?? []).map((p) => {
    const content = contentSchema(p.content);
    return { name: p.name, type: `${p.in}: ${content ? `JSON ${typeText(content.schema)}` : typeText(p.schema)}`, required: !!p.required, note: p.description ?? '' };
  });
  const body = contentSchema(op.requestBody?.content);
  const bodyFields = body?.media === 'application/json' ? fieldsOf(doc, body.schema) : [];
  const security = op.security ?? [];
  const who = security.length === 0 ? translate('ls.developer.public') : security.map((s) => Object.keys(s).join(' + ')).join(` ${translate('ls.developer.or')} `);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {op.description && <Typography variant="body2">{op.description}</Typography>}
      <Typography variant="body2">
        {translate('ls.developer.access')}: {who}
      </Typography>
      {params.length > 0 && (
        <Box>
          <Typography variant="subtitle2">{translate('ls.developer.parameters')}</Typography>
          <FieldTable rows={params} label={translate('ls.developer.parameters')} />
        </Box>
      )}
      {body && (
        <Box>
          <Typography variant="subtitle2">
            {translate('ls.developer.body')} ({body.media})
          </Typography>
          {bodyFields.length > 0 ? <FieldTable rows={bodyFields} label={translate('ls.developer.body')} /> : <Typography variant="body2">{typeText(body.schema)}</Typography>}
        </Box>
      )}
      <Box>
        <Typography variant="subtitle2">{translate('ls.developer.responses')}</Typography>
        <Table size="small" aria-label={translate('ls.developer.responses')}>
          <TableBody>
            {Object.entries(op.responses ?? {}).map(([status, r]) => {
              const ref = r.$ref?.split('/').pop();
              const described = ref ? doc.components?.responses?.[ref]?.description : r.description;
              const schema = contentSchema(r.content)?.schema;
              return (
                <TableRow key={status}>
                  <TableCell sx={{ fontFamily: 'monospace', width: 64 }}>{status}</TableCell>
                  <TableCell>
                    {described}
                    {schema && !ref ? ` — ${typeText(schema)}` : ''}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}

/**
 * The console's developer page: the API's OpenAPI document (GET /api/1/openapi.json) made readable, grouped by tag,
 * each call with its method, path (this account filled in), parameters, body fields and responses, and a search over
 * paths and summaries. Shown with app_general export_curl, the bit API tokens and "copy as cURL" need.
 */
export default function DeveloperPage() {
  const translate = useTranslate();
  const { accountId } = useConsoleAccount();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const { data: doc, isPending, isError, refetch } = useQuery({ queryKey: ['openapi'], queryFn: () => api<OpenApiDocument>('/openapi.json'), staleTime: Infinity, retry: false });
  const groups = useMemo(() => (doc ? groupsOf(doc, deferred) : []), [doc, deferred]);
  const count = groups.reduce((n, g) => n + g.entries.length, 0);
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, display: 'grid', gap: 2 }}>
      <Title title={translate('ls.developer.title')} />
      <Typography variant="h5" component="h1">
        {translate('ls.developer.title')}
      </Typography>
      <Typography variant="body2">
        {translate('ls.developer.intro')}{' '}
        <Link href={`${API_URL}/openapi.json`} target="_blank" rel="noopener">
          {translate('ls.developer.download')}
        </Link>
      </Typography>
      {isPending && <DelayedProgress />}
      {isError && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => refetch()}>
              {translate('ls.developer.retry')}
            </Button>
          }
        >
          {translate('ls.developer.load_failed')}
        </Alert>
      )}
      {doc && (
        <>
          <TextField
            label={translate('ls.developer.search')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            size="small"
            helperText={translate('ls.developer.calls', { count })}
            slotProps={{ htmlInput: { 'data-testid': 'developer-search' } }}
          />
          {groups.length === 0 && <Typography>{translate('ls.developer.none')}</Typography>}
          {groups.map((g) => (
            <Box key={g.tag} component="section" aria-label={g.tag} data-testid={`developer-tag-${g.tag}`}>
              <Typography variant="h6" component="h2">
                {g.tag}
                {g.description && g.description !== g.tag ? ` · ${g.description}` : ''}
              </Typography>
              {g.entries.map((entry) => (
                <Accordion key={`${entry.method} ${entry.path}`} disableGutters slotProps={{ transition: { unmountOnExit: true } }}>
                  <AccordionSummary expandIcon={<ExpandMoreIcon />}>
                    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', minWidth: 0 }}>
                      <Chip label={entry.method.toUpperCase()} color={METHOD_COLOURS[entry.method] ?? 'default'} size="small" sx={{ fontFamily: 'monospace', minWidth: 64 }} />
                      <Typography component="code" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                        {withAccount(entry.path, accountId)}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {entry.op.summary}
                      </Typography>
                    </Box>
                  </AccordionSummary>
                  <AccordionDetails>
                    <OperationDetails doc={doc} entry={entry} />
                  </AccordionDetails>
                </Accordion>
              ))}
            </Box>
          ))}
        </>
      )}
    </Box>
  );
}
