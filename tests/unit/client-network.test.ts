/**
 * Whom an address stands for in the allowance: an IPv4 address (mapped or not), or an IPv6 /64, one household or
 * device that can pick any address in it at will. The slow suite sends sign-ups from such addresses.
 */
import { expect, it } from "vitest";
import { clientNetwork } from "../../src/server/http/rate-limit";

it.each([
  ["203.0.113.9", "203.0.113.9"],
  ["::ffff:203.0.113.9", "203.0.113.9"],
  ["2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
  ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
  ["2001:DB8:0001:0002:ffff::9", "2001:db8:1:2::/64"],
  ["::1", "0:0:0:0::/64"],
  ["", "unknown"],
])("%s counts as %s", (ip, network) => {
  expect(clientNetwork(ip)).toBe(network);
});
