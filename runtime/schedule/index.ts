export { startSchedules, scheduledRequest, SCHEDULE_NS, type ScheduleOptions, type Schedules } from './scheduler.ts';
export { scheduleSettings, backoffMs, cronOf, type ScheduleSettings } from './settings.ts';
