import { useContext, type MouseEvent, type ReactNode } from 'react';
import { AppContext, pathOf, type Route } from './context';

/** Internal links: real addresses (open in a new tab, keyboard, screen readers), moved in place. */
export function Link({ to, className, children, label }: { to: Route; className?: string; children: ReactNode; label?: string }) {
  const app = useContext(AppContext);
  const href = pathOf(to);
  const current = typeof location !== 'undefined' && location.pathname === href;
  return (
    <a
      href={href}
      className={className}
      aria-label={label}
      aria-current={current ? 'page' : undefined}
      onClick={(e: MouseEvent) => {
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        app?.navigate(to);
      }}
    >
      {children}
    </a>
  );
}
