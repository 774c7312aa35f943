// One group of rows under a heading that opens and closes it; the rows are the caller's.
import type { ComponentChildren } from 'preact';
import type { Group } from '../model';

interface Props {
  group: Group;
  collapsed: boolean;
  onToggle: () => void;
  children: ComponentChildren;
}

export function GroupSection({ group, collapsed, onToggle, children }: Props) {
  return (
    <section class="group" aria-label={group.title}>
      <h2>
        <button type="button" aria-expanded={!collapsed} onClick={onToggle}>
          {`${group.title} (${group.rows.length})`}
          <span aria-hidden="true">{collapsed ? ' ▸' : ' ▾'}</span>
        </button>
      </h2>
      {!collapsed && <ul>{children}</ul>}
    </section>
  );
}
