package org.sparkmc.spark.cli;
public final class Main { public static void main(String[] a) {} }
