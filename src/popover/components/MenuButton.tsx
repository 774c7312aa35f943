// A menu button: the accessible way to pick one of a few actions. Unlike a <select>, arrow keys
// only move between items; nothing is chosen until Enter, Space or a click (no mute by accident).
import { useEffect, useRef, useState } from 'preact/hooks';

interface MenuItem {
  value: string;
  label: string;
  checked?: boolean;
}

interface Props {
  name: string;
  label: string;
  items: MenuItem[];
  onChoose: (value: string) => void;
  buttonRef?: (element: HTMLButtonElement | null) => void;
}

export function MenuButton({ name, label, items, onChoose, buttonRef }: Props) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement | null>(null);
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLButtonElement>('[role^="menuitem"]')?.focus();
  }, [open]);
  const close = (): void => {
    setOpen(false);
    button.current?.focus();
  };
  // On the whole control (button and menu): keys work wherever focus is within it.
  const onKey = (event: KeyboardEvent): void => {
    if (!open) return;
    const entries = [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role^="menuitem"]') ?? [])];
    const index = entries.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      event.stopPropagation();
      const next = entries[(index + (event.key === 'ArrowDown' ? 1 : entries.length - 1)) % entries.length];
      next?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the keys of the button and its open menu, caught where both sit
    <span class="menu-button" onKeyDown={onKey}>
      <button
        type="button"
        aria-label={name}
        aria-haspopup="menu"
        aria-expanded={open}
        ref={(element) => {
          button.current = element;
          buttonRef?.(element);
        }}
        onClick={() => setOpen(!open)}
      >
        {label} ▾
      </button>
      {open && (
        <div class="menu" role="menu" aria-label={name} ref={menu}>
          {items.map((item) => (
            <button
              type="button"
              {...(item.checked === undefined ? { role: 'menuitem' } : { role: 'menuitemradio', 'aria-checked': item.checked })}
              key={item.value}
              onClick={() => {
                setOpen(false);
                onChoose(item.value);
                button.current?.focus();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
