"""The Pico's firmware (MicroPython), shipped with the package so that a Pi has it to flash
(`reedboard firmware install`) and the fake board can run it. Never imported on the host as a
package: the fake board loads its modules from this folder."""
