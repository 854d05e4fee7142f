/**
 * The player's few words, in English and Dutch, chosen by the screen's language (navigator.languages): shown full
 * screen when there is nothing to play. A catalogue of its own, like the other public pages', so the player loads no
 * i18n library.
 */
export type PlayerLocale = 'en' | 'nl';

const en = {
  unknown_code_title: 'This player code is not known',
  unknown_code_text: 'Check the address on this screen, or ask the event organiser for the right player code.',
  empty_title: 'Nothing to play yet',
  empty_text: 'This group has no carousels with slides. Add some in the console; this screen picks them up within a minute.',
  offline_title: 'No connection',
  offline_text: 'This player has not been loaded on this screen before, so there is nothing to play offline. It tries again every minute.',
  error_title: 'The player could not start',
  error_text: 'The server did not answer as expected. This screen tries again every minute.',
  preview_sign_in: 'Sign in to the console to see this preview.',
  preview_not_found: 'This carousel does not exist, or you have no access to it.',
  preview_empty: 'This carousel has no slides or variants yet.',
};

export type PlayerTextKey = keyof typeof en;

const nl: Record<PlayerTextKey, string> = {
  unknown_code_title: 'Deze spelercode is onbekend',
  unknown_code_text: 'Controleer het adres op dit scherm, of vraag de organisator van het evenement om de juiste spelercode.',
  empty_title: 'Nog niets om af te spelen',
  empty_text: 'Deze groep heeft geen carrousels met dia’s. Voeg ze toe in de console; dit scherm neemt ze binnen een minuut over.',
  offline_title: 'Geen verbinding',
  offline_text: 'Deze speler is nog niet eerder op dit scherm geladen, dus er is offline niets om af te spelen. Hij probeert het elke minuut opnieuw.',
  error_title: 'De speler kon niet starten',
  error_text: 'De server antwoordde niet zoals verwacht. Dit scherm probeert het elke minuut opnieuw.',
  preview_sign_in: 'Meld je aan bij de console om dit voorbeeld te zien.',
  preview_not_found: 'Deze carrousel bestaat niet, of je hebt er geen toegang toe.',
  preview_empty: 'Deze carrousel heeft nog geen dia’s of varianten.',
};

export const PLAYER_TEXTS: Record<PlayerLocale, Record<PlayerTextKey, string>> = { en, nl };

/** Dutch when the screen's first Dutch-or-English language is Dutch; English otherwise. */
export function playerLocale(languages: readonly string[]): PlayerLocale {
  for (const lang of languages) {
    const base = lang.toLowerCase().split('-')[0];
    if (base === 'nl') return 'nl';
    if (base === 'en') return 'en';
  }
  return 'en';
}
