package org.sparkmc.core.importance;

/** The resampling scheme of {@link Sir}: multinomial, or systematic (Kitagawa 1996; lower variance). */
public enum SirResampling {
    MULTINOMIAL,
    SYSTEMATIC
}
