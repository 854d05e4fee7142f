import { PLAYER_TEXTS, playerLocale, type PlayerTextKey } from './texts';

/** The full-screen message shown when there is nothing to play (unknown code, offline on first load, an empty group). */
export type MessageKind = 'unknown_code' | 'empty' | 'offline' | 'error' | 'preview_sign_in' | 'preview_not_found' | 'preview_empty';

const TITLES: Record<MessageKind, [PlayerTextKey, PlayerTextKey | null]> = {
  unknown_code: ['unknown_code_title', 'unknown_code_text'],
  empty: ['empty_title', 'empty_text'],
  offline: ['offline_title', 'offline_text'],
  error: ['error_title', 'error_text'],
  preview_sign_in: ['preview_sign_in', null],
  preview_not_found: ['preview_not_found', null],
  preview_empty: ['preview_empty', null],
};

export function showMessage(kind: MessageKind): void {
  const locale = playerLocale(navigator.languages?.length ? navigator.languages : [navigator.language]);
  const texts = PLAYER_TEXTS[locale];
  document.documentElement.lang = locale;
  let box = document.getElementById('message');
  if (!box) {
    box = document.createElement('div');
    box.id = 'message';
    box.setAttribute('role', 'alert');
    document.body.append(box);
  }
  box.dataset.kind = kind;
  const [title, text] = TITLES[kind];
  const h1 = document.createElement('h1');
  h1.textContent = texts[title];
  box.replaceChildren(h1);
  if (text) {
    const p = document.createElement('p');
    p.textContent = texts[text];
    box.append(p);
  }
}

export function hideMessage(): void {
  document.getElementById('message')?.remove();
}
