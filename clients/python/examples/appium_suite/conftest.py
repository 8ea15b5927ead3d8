import os

import pytest
from appium import webdriver
from appium.options.common import AppiumOptions


@pytest.fixture
def driver():
    options = AppiumOptions()
    options.set_capability("platformName", "Android")
    options.set_capability("appium:automationName", "UiAutomator2")
    driver = webdriver.Remote(os.environ.get("APPIUM_URL", "http://127.0.0.1:4723"), options=options)
    yield driver
    driver.quit()
