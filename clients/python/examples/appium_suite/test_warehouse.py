from appium.webdriver.common.appiumby import AppiumBy


def test_open_network_settings(driver):
    driver.find_element(AppiumBy.ID, "open-network").click()
    driver.back()


def test_network_settings_again(driver):
    driver.find_element(AppiumBy.ID, "open-network").click()
