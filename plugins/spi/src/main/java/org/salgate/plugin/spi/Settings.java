package org.salgate.plugin.spi;

/** Reading a driver's settings from the text of its configuration. */
public final class Settings {

    private Settings() {}

    /**
     * {@code text} as a whole number from {@code min} to {@code max}, or {@code fallback} when the
     * setting is left out ({@code text} null).
     *
     * @param name the setting, as the error names it ("baud", "parameter retries")
     * @throws IllegalArgumentException saying what {@code name} must be
     */
    public static int wholeNumber(String name, String text, int fallback, int min, int max) {
        if (text == null) {
            return fallback;
        }
        try {
            int v = Integer.parseInt(text.strip());
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(name + " '" + text + "' is not a whole number from " + min + " to " + max);
    }
}
