// The shape of a rule a person would store as a lesson, as the held-apart rule collections are read: an imperative bullet.

// A bullet that gives an order: the shape of a rule a person would store as a lesson.
export const IMPERATIVE =
  /^(?:Use|Avoid|Always|Never|Do not|Don't|Prefer|Keep|Ensure|Write|Run|Add|Set|Call|Implement|Include|Follow|Place|Make|Create|Check|Validate|Store|Return|Handle|Define|Apply|Limit|Separate|Name|Put|Remove|Document|Test|Wrap|Enable|Disable|Configure|Leverage|Utilize|Favor|Favour|Minimize|Optimize|Structure|Organize|Consider|Specify|Declare|Export|Import|Pin|Log|Throw|Catch)\b/;
