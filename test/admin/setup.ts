import { configure } from '@testing-library/react';

/**
 * The admin tests' waits (findBy…, waitFor) give up after 10 s instead of testing-library's 1 s: `npm test` runs these
 * files two at a time beside the browser tests on two cores, where a lazy chunk or a first render can take seconds. A
 * wait still ends as soon as what it waits for is there, so a passing test is no slower.
 */
configure({ asyncUtilTimeout: 10_000 });
