import { RESOURCES } from './registry.js';
import type { ResourceLabels } from './types.js';

export type LabelLanguage = 'en' | 'nl';

/** Every declared resource's labels in one language, by resource name (the i18n messages' resources.*). */
export function resourceLabels(language: LabelLanguage): Record<string, ResourceLabels> {
  return Object.fromEntries(RESOURCES.filter((r) => r.labels).map((r) => [r.name, r.labels![language]]));
}
