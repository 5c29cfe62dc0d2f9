import { describe, expect, it } from "vitest";
import { allowedHosts, hostAllowed, hostIsLoopback, requestToken, tokenMatches } from "./access.ts";

describe("hostIsLoopback", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["localhost", true],
    ["::1", true],
    ["0.0.0.0", false],
    ["192.168.1.5", false],
    ["example.com", false],
  ])("%s: %s", (host, expected) => expect(hostIsLoopback(host)).toBe(expected));
});

describe("allowedHosts", () => {
  it("a loopback bind accepts the loopback names with its port only", () => {
    const allowed = allowedHosts("127.0.0.1", 7575, ["gpu-box"]);
    expect([...allowed].sort()).toEqual(["127.0.0.1:7575", "[::1]:7575", "localhost:7575"]);
    expect(hostAllowed("LOCALHOST:7575", allowed)).toBe(true);
    expect(hostAllowed("localhost:7576", allowed)).toBe(false);
    expect(hostAllowed("evil.example:7575", allowed)).toBe(false);
    expect(hostAllowed("gpu-box:7575", allowed)).toBe(false);
    expect(hostAllowed(undefined, allowed)).toBe(false);
  });

  it("a wildcard bind also accepts the machine's own names", () => {
    const allowed = allowedHosts("0.0.0.0", 80, ["gpu-box", "10.0.0.7", "fe80::1"]);
    expect(hostAllowed("gpu-box:80", allowed)).toBe(true);
    expect(hostAllowed("10.0.0.7:80", allowed)).toBe(true);
    expect(hostAllowed("[fe80::1]:80", allowed)).toBe(true);
    expect(hostAllowed("evil.example:80", allowed)).toBe(false);
  });
});

describe("tokens", () => {
  it("reads a bearer header first, then the query", () => {
    expect(requestToken("Bearer abc", "q")).toBe("abc");
    expect(requestToken(undefined, "q")).toBe("q");
    expect(requestToken("Basic abc", undefined)).toBeNull();
  });

  it("matches only the exact token", () => {
    expect(tokenMatches("secret", "secret")).toBe(true);
    expect(tokenMatches("secreT", "secret")).toBe(false);
    expect(tokenMatches("secret2", "secret")).toBe(false);
    expect(tokenMatches(null, "secret")).toBe(false);
  });
});
