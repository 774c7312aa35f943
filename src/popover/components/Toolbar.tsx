// The filter box, the quick filter (all, attention, one provider from the state's list, or one
// machine) and the
// way to the settings.
import type { Ref } from 'preact';
import type { SettingsView } from '../../engine/contract';
import type { QuickFilter } from '../model';

interface Props {
  filter: string;
  quick: QuickFilter;
  providers: SettingsView['providers'];
  hosts: SettingsView['hosts'];
  /** The filter box, focused by the / key. */
  filterRef: Ref<HTMLInputElement>;
  onFilter: (text: string) => void;
  onQuick: (quick: QuickFilter) => void;
  onSettings: () => void;
}

export function Toolbar({ filter, quick, providers, hosts, filterRef, onFilter, onQuick, onSettings }: Props) {
  return (
    <div class="tools">
      <input
        ref={filterRef}
        type="search"
        placeholder="/ filter sessions…"
        aria-label="Filter sessions"
        value={filter}
        onInput={(event) => onFilter(event.currentTarget.value)}
      />
      <select aria-label="Quick filter" value={quick} onChange={(event) => onQuick(event.currentTarget.value as QuickFilter)}>
        <option value="all">All</option>
        <option value="attention">Attention</option>
        {providers.map((provider) => (
          <option key={provider.id} value={`provider:${provider.id}`}>
            {provider.shortName}
          </option>
        ))}
        {hosts.length > 0 && <option value="host:">This machine</option>}
        {hosts.map((host) => (
          <option key={host.name} value={`host:${host.name}`}>
            {`On ${host.name}`}
          </option>
        ))}
      </select>
      <button type="button" aria-label="Settings" onClick={onSettings}>
        ⚙
      </button>
    </div>
  );
}
