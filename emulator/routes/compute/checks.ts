import { catalog } from "../../catalog";
import type { Services } from "../../family";
import type { FieldErrors } from "../../http";
import { FIND_IMAGE } from "../../lookups";
import { WEAK_PASSWORD_TEXT, rootPasswordError } from "../../../api/passwords";
import { sshKeyError } from "../../../api/ssh-keys";
import { checkLength, LENGTH_LIMITS } from "../../../api/text";
import { profileState } from "../profile";
import { isInt, type Body, type ComputeBase } from "./base";
import { instanceLabelError } from "../../../api/labels";
import { asObject, readText } from "../../body";

/**
 * The checks of a deploy's fields that several routes share (an instance's create and rebuild, a disk's
 * create): SSH keys and users, the root password, the image (from the image family), the deployment script
 * and the user data. Each adds what is wrong to `errors`.
 */
export function computeChecks({ store, d, regionOf }: ComputeBase, services: Services) {
  const profile = profileState(store);
  const findImage = services.use(FIND_IMAGE);

  const checkKeys = (body: Body, errors: FieldErrors) => {
    if (body.authorized_keys !== undefined) {
      if (!Array.isArray(body.authorized_keys)) errors.add("authorized_keys", "Must be an array of SSH public keys");
      else {
        body.authorized_keys.forEach((k, i) => {
          const e = typeof k === "string" ? sshKeyError(k) : "must be a string";
          if (e) errors.add(`authorized_keys[${i}]`, e);
        });
      }
    }
    if (body.authorized_users !== undefined) {
      if (!Array.isArray(body.authorized_users)) errors.add("authorized_users", "Must be an array of usernames");
      else {
        for (const name of body.authorized_users) {
          if (typeof name !== "string" || !store.user(name)) errors.add("authorized_users", `User ${String(name)} does not exist`);
          else if (!profile.sshkeys.some((k) => k.username === name)) errors.add("authorized_users", `User ${name} has no SSH key in their profile`);
        }
      }
    }
  };
  /** The root password given, when the API takes it. */
  const checkRootPass = (body: Body, errors: FieldErrors, needed: boolean): string | undefined => {
    if (body.root_pass === undefined || body.root_pass === null) {
      if (needed) errors.add("root_pass", "root_pass is required when deploying from an image or a script");
      return undefined;
    }
    if (typeof body.root_pass !== "string") return void errors.add("root_pass", "Must be a string of 7 to 128 characters");
    const e = rootPasswordError(body.root_pass);
    if (e) return void errors.add("root_pass", e.startsWith(WEAK_PASSWORD_TEXT) ? WEAK_PASSWORD_TEXT : `root_pass ${e}`);
    return body.root_pass;
  };
  const checkImage = (body: Body, errors: FieldErrors, username: string) => {
    if (body.image === undefined || body.image === null) return undefined;
    const img = typeof body.image === "string" ? findImage()(body.image, username) : undefined;
    if (!img) return void errors.add("image", `Image ${String(body.image)} not found`);
    if (img.status !== "available") return void errors.add("image", "Only available images can be deployed");
    return img;
  };
  const checkScript = (body: Body, errors: FieldErrors, image: string | undefined) => {
    if (body.script_id === undefined || body.script_id === null) return;
    const s = isInt(body.script_id) ? catalog.scripts.find((x) => x.id === body.script_id) : undefined;
    if (!s) return errors.add("script_id", `Deployment script ${String(body.script_id)} not found`);
    if (!image || !s.images.includes(image)) errors.add("script_id", `The deployment script needs one of these images: ${s.images.join(", ")}`);
    let data: Record<string, unknown> = {};
    if (body.script_data !== undefined) {
      if (typeof body.script_data !== "object" || body.script_data === null || Array.isArray(body.script_data))
        return errors.add("script_data", "Must be a JSON object");
      if (checkLength(JSON.stringify(body.script_data), "scriptData"))
        return errors.add("script_data", `Must be at most ${LENGTH_LIMITS.scriptData[1]} characters`);
      data = asObject(body.script_data) ?? {};
    }
    for (const f of s.user_defined_fields)
      if (f.default === undefined && data[f.name] === undefined) errors.add("script_data", `The deployment script needs a value for ${f.name}`);
  };
  const checkMetadata = (body: Body, errors: FieldErrors, region: string | undefined, img: { capabilities: string[] } | undefined) => {
    if (body.metadata === undefined || body.metadata === null) return null;
    const md = asObject(body.metadata);
    if (!md || (md.user_data !== undefined && typeof md.user_data !== "string"))
      return void errors.add("metadata.user_data", "Must be a base64-encoded string");
    if (md.user_data === undefined) return null;
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(md.user_data)) errors.add("metadata.user_data", "Must be base64-encoded");
    // Without an image there is nothing to check against: the real API answered 200 (`has_user_data: true`) to
    // an instance created with user data and no image (recorded), which is kept for a later deploy.
    if (img && !img.capabilities.includes("cloud-init")) errors.add("metadata.user_data", "User data needs an image with the cloud-init capability");
    const r = region ? regionOf(region) : undefined;
    if (r && !r.capabilities.includes("Metadata")) errors.add("metadata.user_data", `Region ${r.id} does not have the Metadata capability`);
    return md.user_data;
  };
  /** An instance's label given in a body: the API's rule, unique among the instances (but `own`). */
  const checkLabel = (value: unknown, errors: FieldErrors, own?: number): string | undefined => {
    if (value === undefined) return undefined;
    const label = readText(value, "label", instanceLabelError, errors);
    if (label !== undefined && d.instances.some((i) => i.label === label && i.id !== own)) {
      return void errors.add("label", "Label must be unique among your instances");
    }
    return label;
  };
  return { checkKeys, checkRootPass, checkImage, checkScript, checkMetadata, checkLabel };
}
