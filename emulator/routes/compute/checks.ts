import { catalog } from "../../catalog";
import type { Services } from "../../family";
import type { FieldErrors } from "../../http";
import { FIND_IMAGE } from "../../lookups";
import { profileState } from "../profile";
import type { ComputeBase } from "./base";

/** What a deploy names beyond its image (an instance's create and rebuild, a disk's create), as its body's schema read it. */
export interface DeployRefs {
  authorized_users?: string[];
  script_id?: number | null;
  script_data?: Record<string, unknown>;
}

/**
 * The checks of a deploy that need the account's state or the catalogue (the contract's schemas checked the
 * rest): the users whose keys it adds, the image (from the image family), the deployment script and its inputs,
 * the user data's image and region, an instance's label among the others. Each adds what is wrong to `errors`.
 */
export function computeChecks({ store, d, regionOf }: ComputeBase, services: Services) {
  const profile = profileState(store);
  const findImage = services.use(FIND_IMAGE);

  const checkUsers = (users: readonly string[], errors: FieldErrors) => {
    for (const name of users) {
      if (!store.user(name)) errors.add("authorized_users", `User ${name} does not exist`);
      else if (!profile.sshkeys.some((k) => k.username === name)) errors.add("authorized_users", `User ${name} has no SSH key in their profile`);
    }
  };
  /** The image to deploy, one the user may deploy and available. */
  const checkImage = (image: string | null | undefined, errors: FieldErrors, username: string) => {
    if (image == null) return undefined;
    const img = findImage()(image, username);
    if (!img) return void errors.add("image", `Image ${image} not found`);
    if (img.status !== "available") return void errors.add("image", "Only available images can be deployed");
    return img;
  };
  /** The deployment script: in the catalogue, for the image, given the inputs it has no default for. */
  const checkScript = ({ script_id: id, script_data: data = {} }: DeployRefs, errors: FieldErrors, image: string | undefined) => {
    if (id == null) return;
    const s = catalog.scripts.find((x) => x.id === id);
    if (!s) return errors.add("script_id", `Deployment script ${id} not found`);
    if (!image || !s.images.includes(image)) errors.add("script_id", `The deployment script needs one of these images: ${s.images.join(", ")}`);
    for (const f of s.user_defined_fields)
      if (f.default === undefined && data[f.name] === undefined) errors.add("script_data", `The deployment script needs a value for ${f.name}`);
  };
  /** What a deploy names beyond its image: its users and its script. */
  const checkDeploy = (body: DeployRefs, errors: FieldErrors, image: string | undefined) => {
    checkUsers(body.authorized_users ?? [], errors);
    checkScript(body, errors, image);
  };
  /** The user data's needs: an image with cloud-init, a region with the Metadata capability. The user data, or null. */
  const checkMetadata = (
    metadata: { user_data?: string } | null | undefined,
    errors: FieldErrors,
    region: string | undefined,
    img: { capabilities: string[] } | undefined,
  ): string | null => {
    const userData = metadata?.user_data;
    if (userData === undefined) return null;
    // Without an image there is nothing to check against: the real API answered 200 (`has_user_data: true`) to
    // an instance created with user data and no image (recorded), which is kept for a later deploy.
    if (img && !img.capabilities.includes("cloud-init")) errors.add("metadata.user_data", "User data needs an image with the cloud-init capability");
    const r = region ? regionOf(region) : undefined;
    if (r && !r.capabilities.includes("Metadata")) errors.add("metadata.user_data", `Region ${r.id} does not have the Metadata capability`);
    return userData;
  };
  /** An instance's label given in a body: unique among the instances (but `own`). */
  const checkLabel = (label: string | undefined, errors: FieldErrors, own?: number): string | undefined => {
    if (label !== undefined && d.instances.some((i) => i.label === label && i.id !== own)) {
      return void errors.add("label", "Label must be unique among your instances");
    }
    return label;
  };
  return { checkImage, checkDeploy, checkMetadata, checkLabel };
}
