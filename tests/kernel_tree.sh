# kernel_tree.sh - a fake /sys/bus/iio tree in the shape Linux 6.1 gives it
# (sourced, not run). The devices copy what the kernel's own drivers show:
# an ADS1015 with a label, _available lists, scan elements, buffer/,
# buffer0/, trigger/ and events/; a MAX1036 with differential pairs and a
# current_timestamp_clock that ends in a NUL, as 6.1 prints it; a TSL2563 light sensor with a
# write-only attribute; a BMP280 without a buffer. Each device directory is
# a link from bus/iio/devices into devices/, as on a real system, so the
# parent device (0-0048) is its hardware id. Used by tests/test_kernel.sh
# and bench/iiod_compare.sh inside a private mount namespace, where $KT_SYS
# (default /sys) is a tmpfs.

KT_SYS=${KT_SYS:-/sys}

# kt_dev N PARENT NAME: an empty iio:deviceN under devices/.../PARENT
kt_dev() {
	kt_d=$KT_SYS/devices/platform/i2c-0/$2/iio:device$1
	mkdir -p "$kt_d/power" "$KT_SYS/bus/iio/devices"
	ln -sfn "../../../devices/platform/i2c-0/$2/iio:device$1" "$KT_SYS/bus/iio/devices/iio:device$1"
	printf '%s\n' "$3" >"$kt_d/name"
	printf '246:%s\n' "$1" >"$kt_d/dev"
	printf 'MAJOR=246\nMINOR=%s\nDEVNAME=iio:device%s\nDEVTYPE=iio_device\n' "$1" "$1" >"$kt_d/uevent"
	chmod 444 "$kt_d/name" "$kt_d/dev"
}

# kt_attr N FILE VALUE [MODE]: one attribute file (default mode 644)
kt_attr() {
	kt_f=$KT_SYS/bus/iio/devices/iio:device$1/$2
	mkdir -p "$(dirname "$kt_f")"
	printf '%s\n' "$3" >"$kt_f"
	chmod "${4:-644}" "$kt_f"
}

# kt_scan N PREFIX INDEX TYPE: scan_elements/PREFIX_{en,index,type}
kt_scan() {
	kt_attr "$1" "scan_elements/$2_en" 0
	kt_attr "$1" "scan_elements/$2_index" "$3" 444
	kt_attr "$1" "scan_elements/$2_type" "$4" 444
}

# kt_buffer N: buffer/ and trigger/ as an IIO triggered buffer has them, and
# buffer0/ (since 5.11) holding buffer/'s files and the scan elements again
# (after kt_scan)
kt_buffer() {
	for kt_b in buffer buffer0; do
		kt_attr "$1" $kt_b/data_available 0 444
		kt_attr "$1" $kt_b/direction in 444
		kt_attr "$1" $kt_b/enable 0
		kt_attr "$1" $kt_b/length 2
		kt_attr "$1" $kt_b/watermark 1
	done
	cp -p "$KT_SYS/bus/iio/devices/iio:device$1/scan_elements/"* \
		"$KT_SYS/bus/iio/devices/iio:device$1/buffer0/"
	kt_attr "$1" trigger/current_trigger ""
}

# kt_clock N: current_timestamp_clock with 6.1's trailing NUL ("realtime\n\0")
kt_clock() {
	printf 'realtime\n\000' >"$KT_SYS/bus/iio/devices/iio:device$1/current_timestamp_clock"
}

kt_ads1015() {
	kt_dev 0 0-0048 ads1015
	kt_attr 0 label adc0 444
	for i in 0 1 2 3; do
		kt_attr 0 "in_voltage${i}_raw" $((564 + i * 100))
		kt_attr 0 "in_voltage${i}_scale" 1.000000000
		kt_attr 0 "in_voltage${i}_sampling_frequency" 1600
		kt_scan 0 "in_voltage$i" "$((i + 4))" "le:s12/16>>4"
	done
	kt_attr 0 in_voltage0-voltage1_raw 12
	kt_attr 0 in_voltage0-voltage1_scale 1.000000000
	kt_attr 0 in_voltage0-voltage1_sampling_frequency 1600
	kt_scan 0 in_voltage0-voltage1 0 "le:s12/16>>4"
	kt_scan 0 in_timestamp 8 "le:s64/64>>0"
	kt_attr 0 sampling_frequency_available "128 250 490 920 1600 2400 3300 3300" 444
	kt_attr 0 scale_available "0.125000000 0.250000000 0.500000000 1.000000000 2.000000000 3.000000000" 444
	kt_clock 0
	kt_buffer 0
	# ti-ads1015's threshold events (a comparator per channel)
	kt_attr 0 events/in_voltage0_thresh_rising_value 2047
	kt_attr 0 events/in_voltage0_thresh_falling_value -2048
	kt_attr 0 events/in_voltage0_thresh_either_en 0
	kt_attr 0 events/in_voltage0_thresh_either_period 0.001250
}

kt_max1036() {
	kt_dev 1 0-0064 max1036
	for i in 0 1 2 3; do
		kt_attr 1 "in_voltage${i}_raw" $((97 + i * 2))
		kt_scan 1 "in_voltage$i" "$i" "be:u8/8>>0"
	done
	kt_attr 1 in_voltage0-voltage1_raw 96
	kt_attr 1 in_voltage1-voltage0_raw 98
	kt_scan 1 in_voltage0-voltage1 12 "be:s8/8>>0"
	kt_scan 1 in_voltage1-voltage0 18 "be:s8/8>>0"
	kt_scan 1 in_timestamp 8 "le:s64/64>>0"
	kt_attr 1 in_voltage_scale 16.000000000
	kt_attr 1 in_voltage-voltage_scale 16.000000000
	kt_clock 1
	kt_buffer 1
}

kt_tsl2563() {
	kt_dev 2 0-0039 tsl2563
	kt_attr 2 label light
	kt_attr 2 in_illuminance0_input 25 444
	kt_attr 2 in_intensity_both_raw 1000 444
	kt_attr 2 in_intensity_both_calibscale 1000
	kt_attr 2 in_intensity_ir_raw 200 444
	kt_attr 2 in_intensity_ir_calibscale 1000
	kt_attr 2 integration_time 0.402000 444
	kt_attr 2 calibrate 0 200
}

kt_bmp280() {
	kt_dev 3 0-0076 bmp280
	kt_attr 3 in_pressure_input 100.653253906 444
	kt_attr 3 in_pressure_oversampling_ratio 16
	kt_attr 3 in_pressure_oversampling_ratio_available "1 2 4 8 16" 444
	kt_attr 3 in_temp_input 25080 444
	kt_attr 3 in_temp_oversampling_ratio 2
	kt_attr 3 in_temp_oversampling_ratio_available "1 2 4 8 16" 444
}

# kt_all: the four devices above (iio:device0..3)
kt_all() {
	kt_ads1015
	kt_max1036
	kt_tsl2563
	kt_bmp280
}

# kt_trig N NAME [PARENT]: trigger device triggerN named NAME, as
# industrialio-trigger.c registers it (name, uevent, power/), under
# devices/PARENT (a trigger without a parent device is devices/triggerN)
kt_trig() {
	kt_t=$KT_SYS/devices/${3:+$3/}trigger$1
	mkdir -p "$kt_t/power" "$KT_SYS/bus/iio/devices"
	ln -sfn "../../../devices/${3:+$3/}trigger$1" "$KT_SYS/bus/iio/devices/trigger$1"
	printf '%s\n' "$2" >"$kt_t/name"
	printf '' >"$kt_t/uevent"
	chmod 444 "$kt_t/name"
}

# kt_tattr N FILE VALUE MODE: a file of triggerN
kt_tattr() {
	printf '%s\n' "$3" >"$KT_SYS/bus/iio/devices/trigger$1/$2"
	chmod "$4" "$KT_SYS/bus/iio/devices/trigger$1/$2"
}

# kt_triggers: an iio-trig-hrtimer trigger made through configfs
# (mkdir .../iio/triggers/hrtimer/hrt0) as trigger0, with sampling_frequency
# as the current driver prints it; iio-trig-sysfs's control device
# iio_sysfs_trigger (a platform device: its driver's files beside
# add_trigger and remove_trigger) and the sysfstrig1 an "add_trigger 1"
# made, trigger1, with trigger_now. Not in kt_all.
kt_triggers() {
	kt_trig 0 hrt0
	kt_tattr 0 sampling_frequency 100.000000 644
	kt_s=$KT_SYS/devices/platform/iio_sysfs_trigger
	mkdir -p "$kt_s/power"
	ln -sfn ../../../devices/platform/iio_sysfs_trigger "$KT_SYS/bus/iio/devices/iio_sysfs_trigger"
	for kt_n in add_trigger remove_trigger; do
		: >"$kt_s/$kt_n"
		chmod 200 "$kt_s/$kt_n"
	done
	printf 'platform:iio_sysfs_trigger\n' >"$kt_s/modalias"
	printf '(null)\n' >"$kt_s/driver_override"
	printf 'DRIVER=iio_sysfs_trigger\nMODALIAS=platform:iio_sysfs_trigger\n' >"$kt_s/uevent"
	chmod 444 "$kt_s/modalias"
	kt_trig 1 sysfstrig1 platform/iio_sysfs_trigger
	kt_tattr 1 trigger_now "" 200
}

# kt_triggers_remove: kt_triggers' trigger devices gone (the modules unloaded)
kt_triggers_remove() {
	rm -f "$KT_SYS"/bus/iio/devices/trigger* "$KT_SYS/bus/iio/devices/iio_sysfs_trigger"
	rm -rf "$KT_SYS"/devices/trigger* "$KT_SYS/devices/platform/iio_sysfs_trigger"
}

# kt_remove N: the device leaves, as a driver unbind takes it away
kt_remove() {
	rm -f "$KT_SYS/bus/iio/devices/iio:device$1"
	rm -rf "$KT_SYS"/devices/platform/i2c-0/*/"iio:device$1"
}

# kt_dev_begin DIR: DIR becomes /dev (in this mount namespace), holding the
# nodes tools need (null, zero, urandom, random) bound from the real one, so
# a test can put its stand-in iio:deviceN where iiod, which has no --dev-root,
# looks for it. kt_dev_end DIR undoes it; kt_dev_undo, at a test's exit,
# too if it is still bound (DIR cannot be removed while it is).
kt_dev_begin() {
	mkdir -p "$1"
	for kt_n in null zero urandom random; do
		touch "$1/$kt_n"
		mount --bind "/dev/$kt_n" "$1/$kt_n"
	done
	mount --rbind "$1" /dev
	kt_dev_bound=$1
}

kt_dev_end() {
	umount -R /dev
	for kt_n in null zero urandom random; do umount "$1/$kt_n"; done
	kt_dev_bound=""
}

kt_dev_undo() {
	[ -z "${kt_dev_bound:-}" ] || kt_dev_end "$kt_dev_bound"
}

# kt_max1363 N: a MAX1363 in monitor mode as max1363.c registers it with an IRQ:
# events/ with threshold values and enables for the four inputs and two of the
# differential pairs, the hysteresis, and the driver's events/sampling_frequency
# (a device attribute there); its events come through the event fd, which
# tests/preload/kshim.c plays. Not in kt_all: only the event rows use it.
kt_max1363() {
	kt_dev "$1" 0-0034 max1363
	for i in 0 1 2 3; do
		kt_attr "$1" "in_voltage${i}_raw" $((1000 + i))
		for d in rising falling; do
			kt_attr "$1" "events/in_voltage${i}_thresh_${d}_value" 2047
			kt_attr "$1" "events/in_voltage${i}_thresh_${d}_en" 0
		done
	done
	for p in 0-voltage1 2-voltage3; do
		kt_attr "$1" "in_voltage${p}_raw" 0
		for d in rising falling; do
			kt_attr "$1" "events/in_voltage${p}_thresh_${d}_value" 2047
			kt_attr "$1" "events/in_voltage${p}_thresh_${d}_en" 0
		done
	done
	kt_attr "$1" in_voltage_scale 0.500000000
	kt_attr "$1" events/sampling_frequency 133000
	kt_attr "$1" events/sampling_frequency_available "133000 665000 33300 16600 8300 4200 2000 1000" 444
}
