/** The visitor's conversation page's words (English and Dutch), loaded with the page's chunk. */
const en = {
  title: 'Conversation',
  loading: 'Loading the conversation…',
  with: 'With {{account}}',
  empty: 'No messages yet.',
  you: 'You',
  reply: 'Your reply',
  send: 'Send',
  sending: 'Sending…',
  closed: 'This conversation is closed. Contact {{account}} another way if you have more questions.',
  invalid_title: 'This conversation link is unknown',
  invalid_text: 'The link may be incomplete, or the conversation was removed.',
  error_conversation_closed: 'This conversation is closed',
  error_too_long: 'A message can be at most 10,000 characters',
};

export type ConversationTexts = typeof en;

const nl: ConversationTexts = {
  title: 'Gesprek',
  loading: 'Het gesprek wordt geladen…',
  with: 'Met {{account}}',
  empty: 'Nog geen berichten.',
  you: 'Jij',
  reply: 'Je antwoord',
  send: 'Versturen',
  sending: 'Versturen…',
  closed: 'Dit gesprek is gesloten. Neem op een andere manier contact op met {{account}} als je nog vragen hebt.',
  invalid_title: 'Deze gesprekslink is onbekend',
  invalid_text: 'De link is misschien onvolledig, of het gesprek is verwijderd.',
  error_conversation_closed: 'Dit gesprek is gesloten',
  error_too_long: 'Een bericht mag hoogstens 10.000 tekens lang zijn',
};

export const CONVERSATION_TEXTS = { en, nl };
