/**
 * Who manages the interfaces of a configuration profile. Pulumi runs every dynamic resource of a program
 * in one provider process, and a profile is always registered before the Interface resources that point
 * to it, so this process-wide record sees both sides within one `pulumi preview` or `up`.
 *
 * The rule (docs/resources/interface.md): a profile's interfaces are managed either as a list (a Config's
 * `interfaces`, or an Instance's `interfaces` on its boot profile) or one by one (Interface resources),
 * never both.
 */
const asList = new Map<string, string>();
const oneByOne = new Map<string, string>();

const key = (computeId: unknown, configId: unknown) => `${String(computeId)}/${String(configId)}`;

export function claimAsList(computeId: unknown, configId: unknown, by: string): void {
  const k = key(computeId, configId);
  const other = oneByOne.get(k);
  if (other)
    throw new Error(
      `configuration profile ${String(configId)} of instance ${String(computeId)} has its interfaces managed one by one (${other}): remove those Interface resources or leave out ${by}'s interfaces`,
    );
  asList.set(k, by);
}

export function claimOneByOne(computeId: unknown, configId: unknown, by: string): void {
  const k = key(computeId, configId);
  const other = asList.get(k);
  if (other)
    throw new Error(
      `configuration profile ${String(configId)} of instance ${String(computeId)} has its interfaces managed as a list by ${other}: declare this interface there instead of as an Interface resource`,
    );
  oneByOne.set(k, by);
}

/** For tests. */
export function resetOwnership(): void {
  asList.clear();
  oneByOne.clear();
}
