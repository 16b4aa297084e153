/**
 * The audit log in the console (GET /admin/audit): every action the team took, newest first, 50 a page, each once
 * (an action's start and end are one row: audit/store.ts, actions), each as a sentence that names what was done
 * (audit/words.ts): an update by its subject, a wave by its size, never an id; a link to the person or the wave's
 * people where they are still there. An action with no words of its own (a newer server's, say) shows its record.
 */
import { type AuditEntry, createAuditLog } from "../../audit";
import { type AuditNames, actorName, auditSentence, isKnownAction } from "../../audit/words";
import type { ServerConfig } from "../../config";
import { withTimeout } from "../../http/timeout";
import type { Store } from "../../store/types";
import { page } from "../pages";
import { CONSOLE_PATHS, consoleHref, waveListHref } from "../paths";
import { personHref } from "../person/person-timeline";
import { Ident, Section } from "../ui/parts";
import { CardTable, Head } from "../ui/table";
import { utcSecond } from "../ui/time";
import { auditNames } from "./audit-names";

const PER_PAGE = 50;

export async function auditPage(store: Store, config: ServerConfig, admin: string, url: URL): Promise<Response> {
  const before = url.searchParams.get("before") ?? "";
  const from = /^[1-9]\d{0,18}$/.test(before) ? Number(before) : null;
  const read = async () => {
    const entries = await store.of(createAuditLog).actions(PER_PAGE + 1, from);
    return { entries, names: await auditNames(store.db, entries.slice(0, PER_PAGE)) };
  };
  const { entries, names } = await withTimeout(read(), config.dbTimeoutMs);
  const shown = entries.slice(0, PER_PAGE);
  const last = shown.at(-1);
  return page(
    200,
    "Audit log",
    <>
      <h1>Audit log</h1>
      <Section id="log" title="What the team did, newest first">
        <p className="note">Kept {config.auditDays} days (AUDIT_DAYS). Never a signed-up person's address.</p>
        {shown.length ? (
          <CardTable>
            <Head columns={["When (UTC)", "Who", "What"]} />
            <tbody>
              {shown.map((entry) => (
                <Row key={entry.id} entry={entry} names={names} />
              ))}
            </tbody>
          </CardTable>
        ) : (
          <p className="note">Nothing yet.</p>
        )}
        {entries.length > PER_PAGE && last ? (
          <nav className="pages" aria-label="Pages">
            <a href={consoleHref(CONSOLE_PATHS.audit, { before: last.id })}>Older</a>
          </nav>
        ) : null}
      </Section>
    </>,
    admin,
    {},
    { area: "audit" },
  );
}

function Row({ entry, names }: { entry: AuditEntry; names: AuditNames & { people: ReadonlySet<number> } }) {
  const { details } = entry;
  const person = typeof details["person"] === "number" ? details["person"] : null;
  const wave = typeof details["wave"] === "number" ? details["wave"] : null;
  // Only an action the sentences do not know shows its record: every other sentence says all it holds.
  const recorded = !isKnownAction(entry.action) && Object.keys(details).length > 0;
  return (
    <tr>
      <td data-label="When (UTC)">{utcSecond(entry.at)}</td>
      <td data-label="Who">
        <Who actor={entry.actor} action={entry.action} />
      </td>
      <td data-label="What">
        {/* One box: on a phone the cell is a row of its label and this, not of each part. */}
        <div>
          <span className="said">{auditSentence(entry.action, details, names)}</span>
          {person !== null && names.people.has(person) ? (
            <>
              {" "}
              <a href={personHref(person)}>Their page</a>
            </>
          ) : null}
          {wave !== null && names.waves.get(wave)?.finished ? (
            <>
              {" "}
              <a href={waveListHref(wave)}>Who it invited</a>
            </>
          ) : null}
          {recorded ? (
            <details className="raw">
              <summary>As recorded</summary>
              <code>{`${entry.action} ${JSON.stringify(details)}`}</code>
            </details>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

/** A credential by its name, in words; an admin by their address, on one line. */
function Who({ actor, action }: { actor: string; action: string }) {
  const name = actorName(actor, action);
  return name === actor ? <Ident text={actor} /> : name;
}
