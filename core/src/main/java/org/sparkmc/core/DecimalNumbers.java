package org.sparkmc.core;

/**
 * Numbers as data files and options write them, in decimal: {@link Double#parseDouble} less the forms only Java
 * takes, its type suffixes ({@code 1120d}, {@code 2f}) and hexadecimal ({@code 0x460p0}), which no CSV, BIF or
 * command-line user means as a number.
 */
public final class DecimalNumbers {
    private DecimalNumbers() {
    }

    /**
     * The number {@code text} writes in decimal notation (digits, a point, an exponent), with the spaces around it
     * that {@link Double#parseDouble} ignores; {@code NaN} and {@code Infinity} too, for callers that refuse them
     * in their own words.
     *
     * @throws NumberFormatException for any other text, a Java suffix or hexadecimal among them
     */
    public static double parse(String text) {
        double value = Double.parseDouble(text);
        String t = text.trim();
        char last = t.charAt(t.length() - 1);
        if (last == 'd' || last == 'D' || last == 'f' || last == 'F' || t.indexOf('x') >= 0 || t.indexOf('X') >= 0) {
            throw new NumberFormatException("not a decimal number: \"" + text + "\"");
        }
        return value;
    }
}
