/**
 * replaceOnChanges in the dynamic classes: the engine applies it through the diff's changed fields, which a
 * dynamic provider's diff cannot name; the sdk classes pass it along with the inputs and the diff applies it.
 */
import { REPLACE_ON_CHANGES } from "../../provider/model/marks";
import { checkInputs, diffInputs } from "../../provider/model/check";
import { instanceSpec } from "../../provider/resources/instance";

const base = { region: "us-east", type: "c1-standard-2", label: "web-1", tags: ["blue"] };

test("a change under a path the program names replaces; other changes stay in place", () => {
  const olds = checkInputs(instanceSpec, base).inputs;
  const news = checkInputs(instanceSpec, { ...base, tags: ["green"], [REPLACE_ON_CHANGES]: ["tags"] }, olds).inputs;
  expect(news[REPLACE_ON_CHANGES]).toEqual(["tags"]); // kept with the checked inputs, for the diff
  expect(diffInputs(instanceSpec, olds, news)).toMatchObject({ changed: ["tags"], replaces: ["tags"] });
  const relabel = checkInputs(instanceSpec, { ...base, label: "web-2", [REPLACE_ON_CHANGES]: ["tags"] }, olds).inputs;
  expect(diffInputs(instanceSpec, olds, relabel)).toMatchObject({ changed: ["label"], replaces: [] });
  // A nested path names its input; "*" names every input.
  const nested = checkInputs(instanceSpec, { ...base, alerts: { cpu: 50 }, [REPLACE_ON_CHANGES]: ["alerts.cpu"] }, olds).inputs;
  expect(diffInputs(instanceSpec, olds, nested).replaces).toEqual(["alerts"]);
  const all = checkInputs(instanceSpec, { ...base, label: "web-3", [REPLACE_ON_CHANGES]: ["*"] }, olds).inputs;
  expect(diffInputs(instanceSpec, olds, all).replaces).toEqual(["label"]);
});
