/**
 * What a filtered People list can become (matching.ts finds the people): "Invite everyone matching (N)", a wave of
 * exactly those a wave may invite (wave-matching.tsx asks first), and "Write to everyone matching", an update to
 * those who said yes to updates (the Updates page, given the filter). N is counted as the list counts its matches,
 * up to MATCH_CAP; the confirmation counts them all.
 */
import { counted } from "../../../lib/plural";
import { CONSOLE_PATHS, consoleHref } from "../paths";
import { MATCH_CAP } from "./list";
import { filterChips } from "./people-chips";
import { type PeopleFilter, peopleParams } from "./people-filter";

/** The filter in words, for a sentence: `matching Source: hn and How big is your team? 50+`. */
export function filterWords(filter: PeopleFilter): string {
  const chips = filterChips(filter, null).map(([text]) => text);
  return chips.length === 0 ? "on the list" : `matching ${chips.join(" and ")}`;
}

export function MatchingActions(props: { filter: PeopleFilter; invitable: number; mail: boolean }) {
  const { filter, invitable } = props;
  const params = peopleParams(filter);
  const many = invitable > MATCH_CAP ? `more than ${MATCH_CAP.toLocaleString("en")}` : invitable.toLocaleString("en");
  return (
    <div className="row">
      {invitable > 0 && props.mail ? (
        <form method="post" action={CONSOLE_PATHS.invite}>
          {Object.entries({ ...params, everyone: "matching" }).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className="quiet">
            Invite everyone matching ({many})
          </button>
        </form>
      ) : (
        <p className="note">
          {invitable === 0
            ? "Nobody matching is confirmed and waiting to be invited."
            : `${counted(invitable, "person matching is", "people matching are")} waiting; with e-mail off, invite them with npm run waitlist -- invite.`}
        </p>
      )}
      <a className="button quiet" href={consoleHref(CONSOLE_PATHS.updates, params)}>
        Write to everyone matching
      </a>
    </div>
  );
}
