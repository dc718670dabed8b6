import { beforeEach, describe, expect, it } from "vitest";
import {
  clearInfoMessages,
  dismissInfoMessage,
  messageStore,
  noteNavigation,
  pushInfoMessage,
} from "./messageStore";

const texts = () => messageStore.get().map((message) => message.text);

describe("info-message queue", () => {
  beforeEach(() => clearInfoMessages());

  it("appends info and success messages and shows them one at a time", () => {
    pushInfoMessage({ level: "info", text: "a" });
    pushInfoMessage({ level: "success", text: "b" });
    expect(texts()).toEqual(["a", "b"]);
    dismissInfoMessage(messageStore.get()[0].id);
    expect(texts()).toEqual(["b"]);
  });

  it("lets a critical message replace everything", () => {
    pushInfoMessage({ level: "info", text: "a" });
    pushInfoMessage({ level: "warning", text: "b" });
    pushInfoMessage({ level: "critical", text: "c" });
    expect(texts()).toEqual(["c"]);
  });

  it("lets a warning replace a queue with nothing critical in it", () => {
    pushInfoMessage({ level: "info", text: "a" });
    pushInfoMessage({ level: "warning", text: "b" });
    expect(texts()).toEqual(["b"]);
    pushInfoMessage({ level: "warning", text: "c" });
    expect(texts()).toEqual(["c"]);
  });

  it("queues a warning behind a critical message", () => {
    pushInfoMessage({ level: "critical", text: "a" });
    pushInfoMessage({ level: "warning", text: "b" });
    expect(texts()).toEqual(["a", "b"]);
  });

  it("carries a message over exactly one navigation", () => {
    pushInfoMessage({ level: "warning", text: "Access denied" });
    noteNavigation();
    expect(texts()).toEqual(["Access denied"]);
    pushInfoMessage({ level: "info", text: "later" });
    noteNavigation();
    expect(texts()).toEqual(["later"]);
    noteNavigation();
    expect(texts()).toEqual([]);
  });
});
