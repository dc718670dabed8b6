import { describe, expect, it } from "vitest";
import { logFilterBody } from "./logs.queries";

const none = { search: "", author: [], action: [], status: [] };

describe("log filter body", () => {
  it("sends nothing for an open window and no filters", () => {
    expect(logFilterBody({ ...none, range: { tab: "all", since: null, until: null } })).toEqual({});
  });

  it("turns a closed window into since and for (inclusive end)", () => {
    const body = logFilterBody({ ...none, range: { tab: "custom", since: 1000, until: 1999 } });
    expect(body).toEqual({ since: 1000, for: 1000 });
  });

  it("passes the tag filters and the search, keeping only known statuses", () => {
    const body = logFilterBody({
      range: { tab: "all", since: null, until: null },
      search: "10.0",
      author: ["root"],
      action: ["POST_user"],
      status: ["FAILURE", "bogus"],
    });
    expect(body).toEqual({ search: "10.0", author: ["root"], action: ["POST_user"], status: ["FAILURE"] });
  });
});
