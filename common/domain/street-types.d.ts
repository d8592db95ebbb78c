// street-types ships the USPS street suffix table (Publication 28, appendix C1) as plain data, without types.
declare module 'street-types' {
  const streetTypes: ReadonlyArray<{ suffix: string; abbrs: string[]; standardAbbr: string }>;
  export default streetTypes;
}
