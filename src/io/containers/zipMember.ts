/**
 * The value a zip reader hands a format for a member it could not read (missing, too large, not
 * JSON). A format's explodeZip passes it through as the entry's value, untouched; the zip container
 * turns every such entry into an issue naming the member, so a bad sample costs one record.
 */
export class UnreadableMember {
  readonly member: string;
  readonly message: string;
  constructor(member: string, message: string) {
    this.member = member;
    this.message = message;
  }
}

/** True for a zip member that could not be read. */
export function isUnreadableMember(value: unknown): value is UnreadableMember {
  return value instanceof UnreadableMember;
}
