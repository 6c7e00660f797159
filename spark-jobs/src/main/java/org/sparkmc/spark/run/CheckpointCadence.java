package org.sparkmc.spark.run;

import org.sparkmc.core.InvalidInputException;

/**
 * How often {@link StepRunner} saves a run's state ({@code --checkpoint-every}): every N steps, or {@code auto}. Under
 * {@code auto} the runner first runs {@value #AUTO_FIRST} steps to learn what a step takes, then saves once the steps
 * since the last save have taken {@value #AUTO_MIN_SECONDS} s, or {@value #AUTO_STEPS_PER_SAVE_SECOND} times as long
 * as the last save took if that is longer (or a tenth less, when its guess of the steps' time fell just short). A
 * crash then loses about that much work, and the saves after the first take about 5% of the run's time at most,
 * whatever a step and a save cost. The first save, whose cost is not known before it is made, and the save after the
 * last step come in any case. Where a step is quick beside a save (KOS: 15 ms a sweep; a save ends the relayed stage
 * and writes every topic), a run of a few seconds saves only after its last step.
 * The cadence never changes a number the run produces, only which states are saved.
 */
public final class CheckpointCadence {
    /** Under {@code auto}: the steps of the first advance, which tell the runner what a step takes. */
    public static final int AUTO_FIRST = 10;
    /** Under {@code auto}: the least time of steps between two saves. */
    public static final int AUTO_MIN_SECONDS = 30;
    /** Under {@code auto}: the seconds of steps between two saves for each second the last save took. */
    public static final int AUTO_STEPS_PER_SAVE_SECOND = 19;

    /** Under {@code auto}: how early, as a share of the time between saves, a save may come. */
    static final double AUTO_EARLY = 0.1;

    private static final CheckpointCadence AUTO = new CheckpointCadence(0);

    /** The fixed interval in steps; 0 for auto. */
    private final int every;

    private CheckpointCadence(int every) {
        this.every = every;
    }

    /**
     * A save every {@code steps} steps.
     *
     * @throws IllegalArgumentException if {@code steps} &lt; 1
     */
    public static CheckpointCadence every(int steps) {
        if (steps < 1) {
            throw new IllegalArgumentException("a checkpoint interval must be at least 1 step, is " + steps);
        }
        return new CheckpointCadence(steps);
    }

    /** Saves spaced by their own measured cost. */
    public static CheckpointCadence auto() {
        return AUTO;
    }

    /**
     * {@code auto} or a whole number of steps ≥ 1, as given to {@code option}.
     *
     * @throws InvalidInputException naming the option and what it takes
     */
    public static CheckpointCadence parse(String text, String option) {
        String value = text == null ? "" : text.trim();
        if (value.equals("auto")) {
            return AUTO;
        }
        try {
            int steps = Integer.parseInt(value);
            if (steps >= 1) {
                return every(steps);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidInputException(option + " must be a whole number ≥ 1 or auto, is '" + text + "'");
    }

    public boolean isAuto() {
        return every == 0;
    }

    /**
     * This cadence with a fixed interval rounded up to a multiple of {@code granule} steps (a job whose saves can
     * only fall after whole groups of steps); {@code auto} unchanged.
     */
    public CheckpointCadence roundedUpTo(int granule) {
        if (isAuto()) {
            return this;
        }
        long rounded = ((long) every + granule - 1) / granule * granule;
        return every((int) Math.min(rounded, (long) Integer.MAX_VALUE / granule * granule));
    }

    /**
     * How many more steps to run before the next save is due (0: it is due now).
     *
     * @param steps the steps run since the last save (or the start)
     * @param workNanos the time they took
     * @param stepNanos the time a step took lately; 0 when no step has been timed yet
     * @param saveNanos the time the last save took; 0 before the first
     */
    int stepsBeforeSave(int steps, long workNanos, long stepNanos, long saveNanos) {
        if (!isAuto()) {
            return Math.max(0, every - steps);
        }
        if (stepNanos <= 0) {
            return Math.max(0, AUTO_FIRST - steps);
        }
        double due = Math.max(AUTO_MIN_SECONDS * 1e9, AUTO_STEPS_PER_SAVE_SECOND * (double) saveNanos);
        double left = due - workNanos;
        // Within a tenth of the mark, save now: the steps usually speed up (the early sweeps are the dense ones), so
        // the estimate falls a little short, and a stage of a few steps would cost more than saving a little early.
        return left <= AUTO_EARLY * due ? 0 : (int) Math.min(Math.ceil(left / stepNanos), Integer.MAX_VALUE / 2);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CheckpointCadence c && c.every == every;
    }

    @Override
    public int hashCode() {
        return every;
    }

    /** As the option takes it: {@code auto} or the number of steps. */
    @Override
    public String toString() {
        return isAuto() ? "auto" : Integer.toString(every);
    }
}
