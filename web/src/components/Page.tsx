// The frame of every page: the document title, the one <h1> (focused after in-app navigation, so screen
// readers announce the new page), optional actions beside it, and the content.
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

export function Page({
  title,
  heading,
  actions,
  children,
  narrow,
}: {
  /** The document title (and the heading unless `heading` is given). */
  title: string;
  heading?: ComponentChildren;
  actions?: ComponentChildren;
  children?: ComponentChildren;
  /** A narrow column (forms such as sign-in). */
  narrow?: boolean;
}) {
  useEffect(() => {
    document.title = `${title} · Tidemark`;
  }, [title]);
  return (
    <div class={narrow ? 'page page-narrow' : 'page'}>
      <div class="page-header">
        <h1 id="page-title" tabIndex={-1}>
          {heading ?? title}
        </h1>
        {actions && <div class="page-actions">{actions}</div>}
      </div>
      {children}
    </div>
  );
}

/** A titled section of a page (`<section>` labelled by its `<h2>`). */
export function Section({
  id,
  title,
  actions,
  children,
}: {
  id: string;
  title: ComponentChildren;
  actions?: ComponentChildren;
  children?: ComponentChildren;
}) {
  return (
    <section class="section" aria-labelledby={`${id}-title`}>
      <div class="section-header">
        <h2 id={`${id}-title`}>{title}</h2>
        {actions && <div class="section-actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
