import { expect, test } from './fixtures';
import { expectNoA11yViolations, fillLogin, newUser, register, signOut } from './support';

test('a wrong password shows the error on the form', async ({ page }) => {
  const user = newUser('typo');
  await register(page, user);
  await signOut(page);
  await expectNoA11yViolations(page, 'login');

  await fillLogin(page, user.email, `${user.password}-wrong`);
  await expect(page.getByTestId('flow-message-error')).toContainText('The provided credentials are invalid');
  await expect(page).toHaveURL(/\/login/);
  // The form is rendered again from the returned flow: the identifier is kept, the password is not.
  await expect(page.getByTestId('flow-input-identifier')).toHaveValue(user.email);
  await expect(page.getByTestId('flow-input-password')).toHaveValue('');
  await expectNoA11yViolations(page, 'login (wrong password)');
});
