/* react-admin's AutocompleteInput on its own chunk: only a select of more than 15 options (spec 9) needs it. */
export { AutocompleteInput as default } from 'react-admin';
